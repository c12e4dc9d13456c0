from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from .health import healthz, metrics_page, readyz
from .throttling import login_throttle


def favicon(request):
    """Browsers ask for /favicon.ico wherever a page names no icon (the admin, the API
    docs): the site's own icon, from its static files."""
    return redirect(static("holmes/favicon.svg"), permanent=True)


urlpatterns = [
    path("favicon.ico", favicon),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics_page, name="metrics"),
    # The admin's log-in counts in the site's log-in budget (per address and per account).
    path("admin/login/", login_throttle(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/", include("holmes_site.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("accounts/", include("accounts.urls")),
    path("authoring/", include("authoring.urls")),
    path("", include("play.urls")),
    path("", include("cases.urls")),
]
