"""The longest time controls the platform accepts (documented in the README): a week per
decision or on a clock, at most a day added per decision. Here, not in the services,
so that the models' validators and the services share one number without an import cycle."""

MAX_DECISION_S = 7 * 24 * 3600
MAX_INCREMENT_S = 24 * 3600
