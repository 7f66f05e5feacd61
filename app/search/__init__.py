"""Full-text search of the conversations (issue 17): an SQLite FTS5 index next to the history."""
