/// The catalog's tables, version by version. A catalog file says its version in `PRAGMA
/// user_version`; opening it runs the steps from there up to `current`, in one transaction. Steps
/// are only ever added at the end: a released step never changes, so every catalog ever written
/// reaches the same schema.
enum Schema {
    /// `PRAGMA application_id`: marks the file as stampcam's ("STMC"), so `--catalog` never writes
    /// tables into another program's database.
    static let applicationID: Int32 = 0x5354_4D43

    /// Step `n` takes a catalog from version `n` to `n + 1`.
    static let steps: [StaticString] = [
        // 1: one row per photo written.
        """
        CREATE TABLE photos (
            id INTEGER PRIMARY KEY,
            path ANY NOT NULL,             -- absolute; TEXT, or a BLOB of the name's bytes when they are not UTF-8
            size INTEGER NOT NULL CHECK (size >= 0),
            sha256 TEXT NOT NULL,          -- of the file as written, 64 lowercase hex digits
            original_path ANY,             -- the unstamped original kept beside it
            original_sha256 TEXT,
            time TEXT,                     -- ISO 8601 as stamped, with its zone
            time_utc INTEGER,              -- the same instant in seconds since 1970
            zone TEXT,                     -- +08:00
            time_source TEXT,              -- EXIF, camera clock, command line, file time
            user TEXT,
            project TEXT,
            location TEXT,
            note TEXT,
            latitude REAL CHECK (latitude BETWEEN -90 AND 90),
            longitude REAL CHECK (longitude BETWEEN -180 AND 180),
            altitude REAL,
            style TEXT,
            style_version INTEGER,
            camera TEXT,
            source ANY,                    -- the photo it was stamped from
            command TEXT NOT NULL CHECK (command IN ('shoot', 'apply', 'restamp', 'rebuild')),
            host TEXT,
            stamped_at TEXT,
            UNIQUE (path, sha256)
        ) STRICT;
        CREATE INDEX photos_time ON photos (time_utc);
        CREATE INDEX photos_position ON photos (latitude, longitude);
        """,
        // 2: the --set values and when each row was logged.
        """
        ALTER TABLE photos ADD COLUMN extra TEXT;        -- a JSON object of the --set values
        ALTER TABLE photos ADD COLUMN logged_at INTEGER; -- seconds since 1970
        """,
        // 3: a camera time without a zone is kept as written in `time`; `time_utc` and `zone` then
        // hold the instant and offset assumed for it (the user's zone when it was logged), flagged,
        // so a reader can order, filter, and re-read it in another zone. The named site (--sites).
        """
        ALTER TABLE photos ADD COLUMN zone_assumed INTEGER; -- 1: time_utc and zone are assumed, not the photo's
        ALTER TABLE photos ADD COLUMN site TEXT;            -- the named site the position is on
        ALTER TABLE photos ADD COLUMN site_address TEXT;    -- its address
        """,
        // 4: which way the camera faced (EXIF GPSImgDirection), for a map's view direction.
        """
        ALTER TABLE photos ADD COLUMN heading REAL;         -- degrees clockwise from north, 0 up to 360
        """,
        // 5: the hash chain (docs/provenance.md, "The photo log's chain"). Rows logged before it are
        // flagged unchained, their hashes left NULL: a chain made up for them afterwards would prove
        // nothing. This catalog's chain gets a random id, so merged rows of other chains stay apart.
        """
        ALTER TABLE photos ADD COLUMN code TEXT;            -- the photo's verification code (none written yet)
        ALTER TABLE photos ADD COLUMN chain TEXT;           -- the id of the chain (catalog) the row is a link of
        ALTER TABLE photos ADD COLUMN link INTEGER;         -- its place in that chain, from 1
        ALTER TABLE photos ADD COLUMN previous_hash TEXT;   -- the hash of the link before it
        ALTER TABLE photos ADD COLUMN supersedes TEXT;      -- the hash of this row's earlier link, when it was updated
        ALTER TABLE photos ADD COLUMN row_hash TEXT;        -- its own hash
        ALTER TABLE photos ADD COLUMN unchained INTEGER;    -- 1: logged before the chain existed
        UPDATE photos SET unchained = 1;
        CREATE INDEX photos_chain ON photos (chain, link);
        CREATE TABLE chain_identity (id TEXT NOT NULL) STRICT;
        INSERT INTO chain_identity VALUES (lower(hex(randomblob(16))));
        """,
        // 6: the rows that predate the chain, recorded once (`Chain.recordUnchained` fills it as
        // the step runs): a row flagged unchained later, by hand, is not among them.
        """
        CREATE TABLE unchained_rows (hash TEXT NOT NULL) STRICT; -- Chain.unchainedHash of each row logged before the chain
        """,
    ]

    static var current: Int { steps.count }

    /// The version from which the rows that predate the chain are recorded (`unchained_rows`).
    static let unchainedRecorded = 6

    /// The columns of the current version, in the order rows are written.
    static let columns = [
        "path", "size", "sha256", "original_path", "original_sha256", "time", "time_utc", "zone", "time_source", "user",
        "project", "location", "note", "latitude", "longitude", "altitude", "style", "style_version", "camera", "source",
        "command", "host", "stamped_at", "extra", "logged_at", "zone_assumed", "site",
        "site_address", "heading",
    ]

    /// The chain's columns (version 5), read beside `columns`; written only by the chain.
    static let chainColumns = ["code", "chain", "link", "previous_hash", "supersedes", "row_hash", "unchained"]
}
