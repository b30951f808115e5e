"""Clubs and seasons (issue #32): a club's home, members, organisers and its year of events.

Stands above tournaments, ratings and games (it imports them; they don't import it): a
tournament belongs to a club through `ClubEvent`, and what tournaments must ask of clubs
(may this player enter, may this organiser run rated events) goes through hooks named in
settings (docs/architecture.md, "Who may import whom")."""
