from django.urls import path

from holmes_site import converters  # noqa: F401 (<id:...>)

from . import views, views_leaving, views_local, views_print

app_name = "play"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.games, name="games"),
    path("games/<slug:name>/rules/", views.game_rules, name="game-rules"),
    path("games/<slug:name>/api/", views.game_api_moves, name="game-api-moves"),
    path("games/<slug:name>/tables/new/", views.game_table_create, name="game-table-create"),
    path("cases/<slug:slug>/", views.case_page, name="case"),
    path("cases/<slug:slug>/print.pdf", views_print.case_print, name="case-print"),
    path("tables/", views.tables, name="tables"),
    path("cases/<slug:slug>/tables/new/", views.table_create, name="table-create"),
    path("join/", views.join_by_code, name="join-by-code"),
    path("join/<str:code>/", views.join, name="join"),
    path("join/<str:code>/watch/", views.watch, name="watch"),
    path("tables/<id:table_id>/", views.table, name="table"),
    path("tables/<id:table_id>/live/", views.table_live, name="table-live"),
    path("tables/<id:table_id>/watch/", views.table_watch, name="table-watch"),
    path("tables/<id:table_id>/colour/", views.table_colour, name="table-colour"),
    path("tables/<id:table_id>/leave/", views.table_leave, name="table-leave"),
    path("tables/<id:table_id>/watching/", views.table_watching, name="table-watching"),
    path("tables/<id:table_id>/start/", views.table_start, name="table-start"),
    path("tables/<id:table_id>/cancel/", views.table_cancel, name="table-cancel"),
    path("tables/<id:table_id>/again/", views.table_play_again, name="table-play-again"),
    path("tables/<id:table_id>/bots/", views.table_bot_add, name="table-bot-add"),
    path("tables/<id:table_id>/house-rules/", views.table_house_rules, name="table-house-rules"),
    path(
        "tables/<id:table_id>/bots/<int:number>/remove/",
        views.table_bot_remove,
        name="table-bot-remove",
    ),
    path("tables/<id:table_id>/seat/leave/", views_leaving.table_seat_leave, name="seat-leave"),
    path(
        "tables/<id:table_id>/seats/<int:number>/remove/",
        views_leaving.table_seat_remove,
        name="seat-remove",
    ),
    path("tables/<id:table_id>/locals/", views_local.local_seat_add, name="local-seat-add"),
    path(
        "tables/<id:table_id>/locals/<int:number>/remove/",
        views_local.local_seat_remove,
        name="local-seat-remove",
    ),
    path("tables/<id:table_id>/device/", views_local.device_confirm, name="device-confirm"),
    path("tables/<id:table_id>/device/hide/", views_local.device_hide, name="device-hide"),
    path("tables/<id:table_id>/act/", views.table_act, name="table-act"),
    path("tables/<id:table_id>/notebook/", views.table_notebook, name="table-notebook"),
]
