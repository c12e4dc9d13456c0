"""The endpoints of `authoring/views.py`: the forms of comment threads and the author's
play-test, beside the admin's pages."""

from django.urls import path

from . import views

app_name = "authoring"

urlpatterns = [
    path("comments/<int:pk>/reply/", views.comment_reply, name="comment_reply"),
    path("comments/<int:pk>/resolve/", views.comment_resolve, name="comment_resolve"),
    path("comments/<int:pk>/reopen/", views.comment_reopen, name="comment_reopen"),
    path("versions/<int:pk>/playtest/", views.playtest, name="playtest"),
]
