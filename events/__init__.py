"""Club events: check-in, rounds and who sits where.

For now the package holds the pure seating core: ``events.tables`` (how many tables, of
which sizes, who sits out) and ``events.seating`` (the objective and the optimiser). Both
import no Django, so they are tested and benchmarked alone; the Django app that records
events will live beside them, on the floor between analytics and config.
"""
