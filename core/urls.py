from django.urls import path

from core import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("settings/", views.account_settings, name="account-settings"),
    path("health/", views.health, name="health"),
    path("header/counts/", views.header_counts, name="header-counts"),
    path("favicon.ico", views.favicon, name="favicon"),
]
