"""What a section, a token, a query and a snippet are: pure functions of text, no files, no engine."""
