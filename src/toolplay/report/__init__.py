"""Reports: the terminal summary (and, later, HTML reports and comparisons)."""

from toolplay.report._terminal import render_summary

__all__ = ["render_summary"]
