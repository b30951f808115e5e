import time

from django.core.management.base import BaseCommand

from ratings import services
from ratings.models import RatingPool


class Command(BaseCommand):
    help = "Rebuild every rating pool (or those of --game) from the match history."

    def add_arguments(self, parser):
        parser.add_argument("--game")

    def handle(self, *args, game=None, **options):
        pools = RatingPool.objects.all()
        if game:
            services.default_pool(game)
            pools = pools.filter(game=game)
        for pool in pools:
            t0 = time.perf_counter()
            n = services.recompute(pool=pool)
            self.stdout.write(f"{pool}: {n} matches in {time.perf_counter() - t0:.2f} s")
