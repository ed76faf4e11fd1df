"""Reporting: the pytest plugin that gathers trial records, and the report builders."""
