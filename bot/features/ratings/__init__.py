"""Ratings (issue 35): OpenSkill ratings per server and season from rated matches and races;
shown on ``/leaderboard mode:rating``, ``/stats`` and every rated result. The service is
Discord-free and is called inside the transaction that ends a match or a race; the stats
feature's commands show what it keeps."""
