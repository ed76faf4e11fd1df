"""Pure judging code for eartest.

Everything here is a plain function of its arguments: no I/O, no model calls, no imports from
the rest of the project. That is what lets the judge be property-tested and trusted to score
every trial the same way on every worker.
"""
