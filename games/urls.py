from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("health/", views.health, name="health"),
]
