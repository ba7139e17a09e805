-- order-check.sql : sequence problems inside one order_no
-- returns one row per problem; 0 rows = clean
WITH ordered AS (
    SELECT order_no,
           seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
    FROM processed
)
SELECT order_no, seq, prev_seq,
       CASE WHEN seq IS NULL OR prev_seq IS NULL AND seq IS NULL THEN 'empty-seq'
            WHEN seq = prev_seq THEN 'duplicate-seq'
            ELSE 'gap' END AS problem
FROM ordered
WHERE seq IS NULL
   OR seq = prev_seq
   OR seq - prev_seq > 1
ORDER BY order_no, seq;
