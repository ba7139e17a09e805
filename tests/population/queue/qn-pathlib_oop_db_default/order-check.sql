-- 주문별로 min..max 사이의 seq 를 모두 만들어 보고, 없는 것(빈 곳)과 두 번 이상 나온 것(중복)을 찾는다.
WITH RECURSIVE
bounds (order_no, lo, hi) AS (
    SELECT order_no, MIN(seq), MAX(seq) FROM processed GROUP BY order_no
),
expected (order_no, seq, hi) AS (
    SELECT order_no, lo, hi FROM bounds
    UNION ALL
    SELECT order_no, seq + 1, hi FROM expected WHERE seq < hi
)
SELECT e.order_no, e.seq, 'missing' AS problem
FROM expected AS e
WHERE NOT EXISTS (SELECT 1 FROM processed AS p
                  WHERE p.order_no = e.order_no AND p.seq = e.seq)
UNION ALL
SELECT order_no, seq, 'duplicate'
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
ORDER BY 1, 2;
