"""Account pages: sign up, log in and out, password reset (Django's auth views), the profile
with notification preferences, and the notifications page."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from holmes_site.throttling import web_throttle

from . import services
from .forms import NotificationPreferencesForm, ProfileForm, SignUpForm
from .models import Notification, NotificationPreferences

NOTIFICATIONS_SHOWN = 50


def unread_notifications(request: HttpRequest) -> dict:
    """Context processor: the unread count for the header's indicator (one query, and
    none at all for anonymous visitors)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    count = Notification.objects.filter(user=user, read_at__isnull=True).count()
    return {"unread_notifications": count}


# Log-in is throttled per address and per account (guessing passwords must cost time), in
# the cache that every web worker shares; the admin's log-in too (holmes_site/urls.py).
login_view = web_throttle("login")(
    auth_views.LoginView.as_view(
        template_name="accounts/login.html", redirect_authenticated_user=True
    )
)


@require_http_methods(["GET", "POST"])
@web_throttle("signup")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("play:tables")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Baker Street, {user.public_name}.")
        return redirect(_next_page(request) or "play:home")
    return render(request, "accounts/signup.html", {"form": form})


def _next_page(request: HttpRequest) -> str | None:
    """`?next=`, if it is a page of this site (as log-in checks it): never another site's."""
    target = request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else None


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    preferences, _ = NotificationPreferences.objects.get_or_create(user=request.user)
    data = request.POST if request.method == "POST" else None
    profile_form = ProfileForm(data, instance=request.user, prefix="profile")
    preferences_form = NotificationPreferencesForm(data, instance=preferences, prefix="prefs")
    if data is not None and profile_form.is_valid() and preferences_form.is_valid():
        with transaction.atomic():
            profile_form.save()
            preferences_form.save()
        messages.success(request, "Your profile is saved.")
        return redirect("accounts:profile")
    return render(
        request,
        "accounts/profile.html",
        {"profile_form": profile_form, "preferences_form": preferences_form},
    )


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """The latest notifications; opening the page marks the ones shown as read."""
    latest = list(Notification.objects.filter(user=request.user)[:NOTIFICATIONS_SHOWN])
    for notification in latest:
        notification.is_new = notification.read_at is None
    unread_ids = [n.pk for n in latest if n.is_new]
    if unread_ids:
        services.notifications_mark_read(user=request.user, ids=unread_ids)
    # The header's count is computed while rendering, so it already leaves these out.
    return render(request, "accounts/notifications.html", {"notifications": latest})
