"""clinea serve: the course tournament as a web service (uploads, league, pages, API)."""
