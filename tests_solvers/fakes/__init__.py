"""Fake provider servers that speak real wire formats, so backends are tested through real SDKs."""
