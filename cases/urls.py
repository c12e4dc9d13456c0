from django.urls import path

from . import views

app_name = "cases"

urlpatterns = [
    path("guide/writing-a-case/", views.writing_guide, name="writing-guide"),
]
