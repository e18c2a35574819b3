-- rating_pairs (020) is no longer written or read: the daily cap per pair counts two
-- players' rated games from rating_changes. It stays, because every version reads the
-- same database (docs/operating.md, "Deploys and rollbacks"): a version from before 022
-- still running beside this one, or rolled back to, writes and reads it. A later migration
-- may drop it once no such version runs.

-- Opening a rated game in one round trip (bot/store/ratings.py, RatingStore.claim): its
-- players' rating locks, in the order given (each a key's text, hashed as
-- bot/store/locks.py hashes it), then the game's claim and what rating it needs. No rows:
-- the game was rated already.
--
-- A function, because it is VOLATILE: each of its statements reads what was committed when
-- it starts, so the reads see what the locks' last holders wrote. One statement holding
-- both would read the database as it was before its locks were granted.
--
-- Generic plans to the end of the transaction: this function's statements and the write
-- that follows it look rows up by key, whoever plays; PostgreSQL otherwise plans them again
-- at every call (many array parameters), 0.3-0.8 ms each.
CREATE FUNCTION rating_open(_locks text[], _kind text, _source bigint, _guild bigint,
                            _season text, _now double precision, _since double precision,
                            _until double precision, _ids bigint[])
    RETURNS TABLE (guild_id bigint, user_id bigint, season text, mu double precision,
                   sigma double precision, rating double precision, games bigint,
                   total_games bigint, best double precision, updated_at double precision,
                   opponents bigint[], counts bigint[])
    LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
    PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
    PERFORM pg_advisory_xact_lock(hashtextextended(k, 0))
        FROM unnest(_locks) WITH ORDINALITY AS l(k, i) ORDER BY i;
    INSERT INTO rated_games (kind, source_id, guild_id, season, rated_at)
        VALUES (_kind, _source, _guild, _season, _now)
        ON CONFLICT (kind, source_id) DO NOTHING;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- Each player's stored rating (NULLs for a newcomer), and their rated games today with
    -- each other player of higher id (the join of _TOGETHER in bot/store/ratings.py).
    RETURN QUERY
    WITH together AS (
        SELECT a.user_id AS player, b.user_id AS other, COUNT(*) AS games
        FROM rating_changes a JOIN rating_changes b ON b.kind = a.kind
             AND b.source_id = a.source_id AND b.user_id > a.user_id
        WHERE a.guild_id = _guild AND a.changed_at >= _since AND a.changed_at < _until
              AND a.why_not IS NULL AND b.why_not IS NULL
              AND a.user_id = ANY (_ids) AND b.user_id = ANY (_ids)
        GROUP BY a.user_id, b.user_id)
    SELECT r.guild_id, u.user_id, r.season, r.mu, r.sigma, r.rating, r.games,
           r.total_games, r.best, r.updated_at, p.opponents, p.counts
    FROM unnest(_ids) AS u(user_id)
    LEFT JOIN ratings r ON r.guild_id = _guild AND r.user_id = u.user_id
    LEFT JOIN (SELECT player, array_agg(other) AS opponents, array_agg(games) AS counts
               FROM together GROUP BY player) p ON p.player = u.user_id;
END
$$;
