from django.contrib.auth import views as auth_views
from django.urls import path

from holmes_site import converters  # noqa: F401 (<id:...>)
from holmes_site.throttling import web_throttle

from . import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password-reset/",
        # Each one sends an e-mail: per address and per address asked for.
        web_throttle("password_reset")(views.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path("verify/again/", views.verify_email_again, name="verify-again"),
    path("verify/<str:token>/", views.verify_email, name="verify"),
    path("profile/", views.profile, name="profile"),
    path(
        "profile/api-tokens/<id:token_id>/revoke/",
        views.api_token_revoke,
        name="api-token-revoke",
    ),
    path("notifications/", views.notifications, name="notifications"),
]
