"""Statistics (NumPy "Statistics"): order statistics (order.py; medians: median.py), averages and
variances."""
