"""GitHub's GraphQL API (and the REST endpoints a REST reader needs) on loopback, over a world file.

It executes GitHub's published schema (``emulator.schema``) with graphql-core, so parsing,
validation, aliases, fragments, unions and variables behave as graphql-core does, and
adds GitHub's limits, rate-limit accounting and injected faults. It is an independent
witness: it imports nothing from ``queries``, ``corrections`` or ``learnings``.
"""

from emulator.server import Server, serve, serve_in_thread
from emulator.world import WorldError, WorldFile, load_world, parse_world

__all__ = ["Server", "WorldError", "WorldFile", "load_world", "parse_world", "serve", "serve_in_thread"]
