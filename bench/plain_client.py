"""`python -m bench.plain_client FILE`: the product's requests sent again by a plain HTTP client.

FILE (written by bench/processes.py) holds the requests one `corrections read` sent, in its
waves: a wave's requests go out together (a thread each), the next wave once they are answered.
Nothing but the standard library is imported, so the process costs what an interpreter and the
requests cost: the floor a reader's whole process is held against.
"""

from __future__ import annotations

import http.client
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit


def send(request: dict[str, Any]) -> int:
    """One request; its HTTP status (the answer is read whole, as a reader would)."""
    url = urlsplit(request["url"])
    connection = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=120)
    try:
        target = url.path + (f"?{url.query}" if url.query else "")
        body = request["body"].encode("utf-8") if request["body"] else None
        connection.request(request["method"], target, body=body, headers=request["headers"])
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def main(argv: list[str]) -> int:
    """Send every wave in turn; exit 1 if any answer was not 200."""
    with open(argv[0], encoding="utf-8") as file:
        waves: list[list[dict[str, Any]]] = json.load(file)
    statuses: list[int] = []
    with ThreadPoolExecutor(max_workers=max((len(wave) for wave in waves), default=1)) as pool:
        for wave in waves:
            statuses += pool.map(send, wave)
    return 0 if all(status == 200 for status in statuses) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
