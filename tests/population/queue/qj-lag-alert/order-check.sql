-- seq duplicated or missing inside an order_no (0 rows = clean)
SELECT order_no, seq, 'dup' FROM processed GROUP BY order_no, seq HAVING COUNT(*) > 1
UNION ALL
SELECT order_no, prev || '..' || seq, 'hole'
FROM (SELECT order_no, seq, LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev FROM processed)
WHERE seq - prev > 1
UNION ALL
SELECT order_no, NULL, 'null' FROM processed WHERE seq IS NULL;
