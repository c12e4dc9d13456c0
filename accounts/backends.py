"""Log-in by username in any case: sign-up already refuses "Alice" when "alice" exists
(Django's UserCreationForm compares names without case), so a name typed with other
capitals can only mean the one account."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class UsernameAnyCaseBackend(ModelBackend):
    """Django's ModelBackend, finding the account by its username without regard to case.
    The exact spelling wins should two accounts from before that rule differ only in case."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        users = get_user_model()
        if username is None:
            username = kwargs.get(users.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = _user_named(users, username)
        if user is None:
            # As ModelBackend does: hash anyway, so that a missing account takes as long.
            users().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None


def _user_named(users, username: str):
    field = users.USERNAME_FIELD
    matches = list(users._default_manager.filter(**{f"{field}__iexact": username})[:5])
    exact = [user for user in matches if getattr(user, field) == username]
    if exact:
        return exact[0]
    return matches[0] if len(matches) == 1 else None
