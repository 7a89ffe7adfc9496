"""Polku: a game master's session tracker for Rajapolku, Harhapolku and Varjojuoksu."""

__version__ = "0.1.0"
