"""How graphql-core reaches the world: one small Python object per GraphQL object.

Every object's attributes, properties or methods are named like the schema's fields; a method
receives ``(info, args)`` (``fields.py``). Objects with a global id register their class in the
one node registry (``registry.py``), which answers ``node(id)`` and lets a module build an object
of another module (a Ref's repository) without importing it: imports point one way, from the
roots (``query.py``, ``mutation.py``) down to ``repository``, ``issues``, ``git``, ``reactions``,
``actors`` and the registry.
"""
