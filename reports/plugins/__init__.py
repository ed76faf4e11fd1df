"""pytest plugins of the reports: trial records in, reports out; failure lines."""
