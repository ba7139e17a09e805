SELECT order_no, COUNT(*) n, COUNT(DISTINCT seq) d, MIN(seq) lo, MAX(seq) hi FROM processed GROUP BY order_no HAVING n <> d OR hi - lo + 1 <> d;
