"""The endpoints of `authoring/views.py`: the forms of comment threads and the author's
play-test, beside the admin's pages."""

from django.urls import path

from . import tester_views, views

app_name = "authoring"

urlpatterns = [
    path("comments/<int:pk>/reply/", views.comment_reply, name="comment_reply"),
    path("comments/<int:pk>/resolve/", views.comment_resolve, name="comment_resolve"),
    path("comments/<int:pk>/reopen/", views.comment_reopen, name="comment_reopen"),
    path("versions/<int:pk>/playtest/", views.playtest, name="playtest"),
    path("versions/<int:pk>/comment/", views.comment_add, name="comment_add"),
    # The editor's answer tester (authoring/tester_views.py).
    path("questions/<int:pk>/try/", tester_views.answer_try, name="answer_try"),
    path("questions/<int:pk>/decide/", tester_views.answer_form_decide, name="answer_decide"),
    path("versions/<int:pk>/try/", tester_views.answer_try_new, name="answer_try_new"),
]
