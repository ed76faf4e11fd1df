"""The report's tables: accuracy cells per family, controls, factors, humans."""
