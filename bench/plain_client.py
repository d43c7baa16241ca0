"""`python -m bench.plain_client FILE`: the product's requests sent again by a plain HTTP client.

FILE (written by bench/processes.py) holds the requests one `corrections read` sent, in its
waves: a wave's requests go out together (a thread and a connection each, sent once all are
connected), the next wave once they are answered.
Nothing but the standard library is imported, so the process costs what an interpreter and the
requests cost: the floor a reader's whole process is held against.
"""

from __future__ import annotations

import http.client
import json
import sys
import threading
from typing import Any
from urllib.parse import urlsplit


def send(request: dict[str, Any], ready: threading.Barrier, statuses: list[int]) -> None:
    """One request, sent once every request of its wave is connected; its status is appended
    (the answer is read whole, as a reader would)."""
    url = urlsplit(request["url"])
    connection = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=120)
    try:
        connection.connect()
        ready.wait()
        target = url.path + (f"?{url.query}" if url.query else "")
        body = request["body"].encode("utf-8") if request["body"] else None
        connection.request(request["method"], target, body=body, headers=request["headers"])
        answer = connection.getresponse()
        answer.read()
        statuses.append(answer.status)
    finally:
        connection.close()


def main(argv: list[str]) -> int:
    """Send every wave in turn; exit 1 if any answer was not 200."""
    with open(argv[0], encoding="utf-8") as file:
        waves: list[list[dict[str, Any]]] = json.load(file)
    statuses: list[int] = []
    for wave in waves:
        ready = threading.Barrier(len(wave), timeout=60)  # a failed connection breaks it
        threads = [threading.Thread(target=send, args=(request, ready, statuses)) for request in wave]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    sent = sum(len(wave) for wave in waves)
    return 0 if len(statuses) == sent and all(status == 200 for status in statuses) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
