"""The files the model reads, rendered from a read's outcome: the context folder, the prompt, the
checked answer (pure), but for three modules at its edge: output.py writes the context folder,
context_folder.py reads one back, new_issue.py reads the event payload (tests/test_layout.py holds
the list). The templates and the tokenizer's ranks are the package's own files."""
