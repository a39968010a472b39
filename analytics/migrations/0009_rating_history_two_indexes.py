"""Rating history: two indexes instead of four (a full recompute pays for each per row)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('analytics', '0008_summary_tallies_and_applied'),
        ('replays', '0014_options_canonical'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='ratinghistory',
            name='rating_history_unique',
        ),
        migrations.RemoveIndex(
            model_name='ratinghistory',
            name='analytics_r_scope_i_4108ec_idx',
        ),
        migrations.RemoveIndex(
            model_name='ratinghistory',
            name='analytics_r_scope_i_d7c916_idx',
        ),
        migrations.RemoveIndex(
            model_name='ratinghistory',
            name='analytics_r_player__cd728f_idx',
        ),
        migrations.AddIndex(
            model_name='ratinghistory',
            index=models.Index(fields=['player', 'scope', 'order_at', 'record'], name='rating_history_player'),
        ),
        migrations.AddConstraint(
            model_name='ratinghistory',
            constraint=models.UniqueConstraint(fields=('scope', 'order_at', 'record', 'player'), name='rating_history_in_order'),
        ),
    ]
