"""How the GitHub commands' mutations wait for each other: replaced in tests so they do not sleep.

Imported by a command's `run` once its checks are made (asyncio loads with it)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pacing:
    """The sleep and the clock of the writers."""

    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    clock: Callable[[], float] = time.monotonic


PACING = Pacing()
