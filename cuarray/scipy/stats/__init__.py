"""cuarray.scipy.stats: descriptive statistics of `scipy.stats` on the GPU. See docs/scipy.md
(what SciPy's own generic code already runs on cuarray arrays with SCIPY_ARRAY_API=1)."""

from ._descriptive import boxcox_llf as boxcox_llf
from ._descriptive import describe as describe
from ._descriptive import entropy as entropy
from ._descriptive import gmean as gmean
from ._descriptive import hmean as hmean
from ._descriptive import kurtosis as kurtosis
from ._descriptive import mode as mode
from ._descriptive import moment as moment
from ._correlation import pearsonr as pearsonr
from ._descriptive import pmean as pmean
from ._descriptive import rankdata as rankdata
from ._descriptive import skew as skew
from ._correlation import spearmanr as spearmanr
from ._descriptive import trim_mean as trim_mean
from ._descriptive import zmap as zmap
from ._descriptive import zscore as zscore
from ._dispersion import gstd as gstd
from ._dispersion import iqr as iqr
from ._dispersion import median_abs_deviation as median_abs_deviation
from ._dispersion import percentileofscore as percentileofscore
from ._dispersion import scoreatpercentile as scoreatpercentile
from ._dispersion import sem as sem
from ._dispersion import trim1 as trim1
from ._dispersion import trimboth as trimboth
from ._dispersion import variation as variation
from ._ttests import linregress as linregress
from ._ttests import ttest_1samp as ttest_1samp
from ._ttests import ttest_ind as ttest_ind
from ._ttests import ttest_rel as ttest_rel
from ._binned import binned_statistic as binned_statistic
from ._binned import binned_statistic_2d as binned_statistic_2d
from ._binned import binned_statistic_dd as binned_statistic_dd
from ._rank_tests import mannwhitneyu as mannwhitneyu
from ._kendall import kendalltau as kendalltau
