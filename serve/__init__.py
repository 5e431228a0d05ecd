"""The course's tournament as a web service (`clinea serve`): students
upload bots, a league rates them live, the teacher exports the grades.

- `cli`: the command, `clinea serve init` and `clinea serve run`
- `course`: a course folder, its roster and tokens
- `store`: the SQLite store (students, versions, games)
- `league`: the league the server runs in its threads
- `uploads`: an upload checked and written into its own folder
- `app`: the pages and the JSON API (Starlette, the serve extra)
"""
