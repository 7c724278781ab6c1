"""Statistics (NumPy "Statistics"): order statistics, averages and variances."""
