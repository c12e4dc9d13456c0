from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A Holmes user: a player, and maybe an author or a moderator (by group).

    A project-owned user model from the first migration, so that profile fields can be
    added later without the painful switch away from auth.User.
    """

    display_name = models.CharField(
        max_length=60, blank=True, help_text="The name other players see at a table."
    )

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def public_name(self) -> str:
        return self.display_name or self.username
