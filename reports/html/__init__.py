"""The report as one self-contained HTML page and its views."""
