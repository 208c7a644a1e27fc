// The SQLite-backed catalogue. See Database.swift.
