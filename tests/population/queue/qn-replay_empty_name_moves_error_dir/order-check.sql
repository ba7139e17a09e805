SELECT order_no, seq, COUNT(*) AS cnt, 'duplicate' AS kind
FROM processed GROUP BY order_no, seq HAVING COUNT(*) > 1
UNION ALL
SELECT order_no, seq, next_seq - seq - 1, 'missing'
FROM (SELECT order_no, seq, LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq FROM processed)
WHERE next_seq - seq > 1;
