"""The store: its JSONL lines, the changes made to it (add, edit, remove, merge, suppress), the
local file a command works on and the files git tracks beside it."""
