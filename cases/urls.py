from django.urls import path

from . import views

app_name = "cases"

urlpatterns = [
    path("", views.home, name="home"),
    path("cases/<slug:slug>/", views.case_detail, name="detail"),
    path("guide/writing-a-case/", views.writing_guide, name="writing-guide"),
]
