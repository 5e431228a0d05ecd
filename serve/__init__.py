"""The course's tournament as a web service (`clinea serve`): students upload bots, a league rates them live, the teacher exports the grades."""
