"""Textbook trees and small games."""

from __future__ import annotations

from .textbook import TEXTBOOK, TextbookTree, textbook, textbook_trees

__all__ = ["TEXTBOOK", "TextbookTree", "textbook", "textbook_trees"]
