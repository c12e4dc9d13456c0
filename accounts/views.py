"""Account pages: sign up, log in and out, password reset (Django's auth views), the profile
with notification preferences, and the notifications page."""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.functional import SimpleLazyObject
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from holmes_site.safe_input import text_refusal
from holmes_site.throttling import login_throttle, web_throttle

from . import hooks, selectors, services
from .forms import NotificationPreferencesForm, ProfileForm, SignUpForm
from .models import Notification, NotificationPreferences

NOTIFICATIONS_SHOWN = 50


def unread_notifications(request: HttpRequest) -> dict:
    """Context processor: the unread count for the header's indicator (one query, and
    none at all for anonymous visitors). Counted when a template shows it, once: a part
    of a page that htmx swaps in (a table's live region, a move's answer) has no header,
    and costs no query for it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    return {"unread_notifications": SimpleLazyObject(unread.count)}


def auth_links(request: HttpRequest) -> dict:
    """Context processor: where the header's Log in and Sign up links bring the visitor
    back to. On the account pages themselves, the page they were already going back to
    (an invite, say); elsewhere, the page they are on."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return {}
    if request.path.startswith(ACCOUNT_PAGES):
        return {"auth_next": next_page(request) or ""}
    return {"auth_next": request.get_full_path()}


ACCOUNT_PAGES = "/accounts/"


def next_page(request: HttpRequest) -> str | None:
    """`next` (posted, or in the address), if it is a page of this site (as log-in checks
    it): never another site's, nor one holding NUL (PostgreSQL refused it in the invite's
    lookup) or other text the site's guard refuses."""
    target = request.POST.get("next") or request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    readable = text_refusal(target, max_length=MAX_NEXT_CHARACTERS) is None
    return target if safe and readable and target.startswith("/") else None


MAX_NEXT_CHARACTERS = 2_000  # a page's address, with its query


def _invite_context(request: HttpRequest) -> dict:
    """`next`, and, when it is an invite link, who invites to what."""
    target = next_page(request) or ""
    invite = hooks.invite_for_link(request, target) if target else None
    return {"next": target, "invite": invite}


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), **_invite_context(self.request)}


# Failed log-ins are throttled per address and per account (guessing passwords must cost
# time), in the cache that every web worker shares; the admin's log-in too
# (holmes_site/urls.py). A log-in that succeeds counts for nothing.
login_view = login_throttle(LoginView.as_view())


@require_http_methods(["GET", "POST"])
@web_throttle("signup")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("play:tables")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        services.email_verification_send(user=user, next_url=next_page(request) or "")
        messages.success(
            request,
            f"Welcome to Baker Street, {user.public_name}. We have e-mailed you a link to "
            "confirm your address.",
        )
        return redirect(next_page(request) or "play:home")
    return render(request, "accounts/signup.html", {"form": form, **_invite_context(request)})


@require_GET
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the verification e-mail: marks the address verified, then goes on to
    where the person was going (the table they were invited to)."""
    user = services.email_verify(token=token)
    if user is None:
        messages.error(
            request,
            "This confirmation link is too old, or is for an address the account no longer "
            "has. Log in and ask for a new one on your profile.",
        )
        return redirect("accounts:profile" if request.user.is_authenticated else "accounts:login")
    messages.success(request, f"Thank you: {user.email} is confirmed.")
    target = next_page(request)
    if not request.user.is_authenticated:
        login_url = reverse("accounts:login")
        return redirect(f"{login_url}?{urlencode({'next': target})}" if target else login_url)
    return redirect(target or "play:tables")


@login_required
@require_POST
@web_throttle("password_reset")  # each one sends an e-mail
def verify_email_again(request: HttpRequest) -> HttpResponse:
    services.email_verification_send(user=request.user)
    messages.success(request, f"A new confirmation link is on its way to {request.user.email}.")
    return redirect("accounts:profile")


class PasswordResetView(auth_views.PasswordResetView):
    """The e-mailed link carries `next`, so that the new password leads back to the
    invite the person was following."""

    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        target = next_page(self.request)
        self.extra_email_context = {
            "next_query": f"?{urlencode({'next': target})}" if target else "",
            "site_url": settings.SITE_URL,
        }
        return super().form_valid(form)

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), **_invite_context(self.request)}


RESET_NEXT_KEY = "password_reset_next"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Choosing the new password logs the person in and brings them on to `next`. Django
    moves the token out of the address on the first visit (a redirect that drops the
    query), so `next` waits in the session meanwhile."""

    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")
    post_reset_login = True

    def dispatch(self, *args, **kwargs):
        target = next_page(self.request)
        if target:
            self.request.session[RESET_NEXT_KEY] = target
        return super().dispatch(*args, **kwargs)

    @property
    def post_reset_login_backend(self):
        return settings.AUTHENTICATION_BACKENDS[0]

    def get_success_url(self):
        target = self.request.session.pop(RESET_NEXT_KEY, None)
        if target:
            messages.success(self.request, "Your new password is set, and you are logged in.")
            return target
        return super().get_success_url()


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    preferences, _ = NotificationPreferences.objects.get_or_create(user=request.user)
    data = request.POST if request.method == "POST" else None
    profile_form = ProfileForm(data, instance=request.user, prefix="profile")
    preferences_form = NotificationPreferencesForm(data, instance=preferences, prefix="prefs")
    if data is not None and profile_form.is_valid() and preferences_form.is_valid():
        email_changed = "email" in profile_form.changed_data
        with transaction.atomic():
            user = profile_form.save(commit=False)
            if email_changed:
                user.email_verified_at = None  # the new address must be confirmed too
            user.save()
            preferences_form.save()
            if email_changed:
                services.email_verification_send(user=user)
        messages.success(
            request,
            "Your profile is saved."
            + (" We have e-mailed a link to confirm your new address." if email_changed else ""),
        )
        return redirect("accounts:profile")
    return render(
        request,
        "accounts/profile.html",
        {
            "profile_form": profile_form,
            "preferences_form": preferences_form,
            "api_tokens": selectors.api_tokens_of(user=request.user),
            "api_token_days": settings.API_TOKEN_DAYS,
        },
    )


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """The profile's Revoke button: the token stops working at once. Another account's
    token is not found (404), as if it did not exist."""
    token = services.api_token_revoke(user=request.user, token_id=token_id)
    if token is None:
        raise Http404("No such API token of yours.")
    messages.success(
        request,
        f"The API token {token.prefix}… is revoked: a program that still sends it is refused.",
    )
    return redirect(f"{reverse('accounts:profile')}#api-tokens")


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
