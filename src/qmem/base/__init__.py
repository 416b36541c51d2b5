"""What is on disk and where, and what fails: errors, names, files, dates, the config. Imports no other tier."""
