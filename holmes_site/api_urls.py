from django.urls import path

from accounts import api as accounts_api
from holmes_site import converters  # noqa: F401 (<id:...>)
from play import api

app_name = "api"

urlpatterns = [
    path("auth/token/", accounts_api.TokenApi.as_view(), name="token"),
    path("notifications/", accounts_api.NotificationListApi.as_view(), name="notifications"),
    path(
        "notifications/read/", accounts_api.NotificationReadApi.as_view(), name="notifications-read"
    ),
    path("cases/", api.CaseListApi.as_view(), name="cases"),
    path("cases/<slug:slug>/", api.CaseDetailApi.as_view(), name="case"),
    path("games/", api.GameListApi.as_view(), name="games"),
    path("tables/", api.TableListApi.as_view(), name="tables"),
    path("tables/join/", api.TableJoinApi.as_view(), name="table-join"),
    path("tables/<id:table_id>/", api.TableDetailApi.as_view(), name="table"),
    path("tables/<id:table_id>/leave/", api.TableLeaveApi.as_view(), name="table-leave"),
    path("tables/<id:table_id>/seat/leave/", api.TableSeatLeaveApi.as_view(), name="seat-leave"),
    path(
        "tables/<id:table_id>/seats/<int:number>/remove/",
        api.TableSeatRemoveApi.as_view(),
        name="seat-remove",
    ),
    path("tables/<id:table_id>/start/", api.TableStartApi.as_view(), name="table-start"),
    path("tables/<id:table_id>/colour/", api.TableColourApi.as_view(), name="table-colour"),
    path("tables/<id:table_id>/bots/", api.TableBotApi.as_view(), name="table-bots"),
    path(
        "tables/<id:table_id>/bots/<int:number>/",
        api.TableBotDetailApi.as_view(),
        name="table-bot",
    ),
    path("tables/<id:table_id>/actions/", api.TableActionApi.as_view(), name="table-actions"),
    path("tables/<id:table_id>/events/", api.TableEventsApi.as_view(), name="table-events"),
    path("tables/<id:table_id>/notebook/", api.NotebookApi.as_view(), name="table-notebook"),
]
