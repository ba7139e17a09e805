-- order-check.sql: sequence problems inside one order_no in `processed`.
-- One row per problem; zero rows means every order is contiguous and unique.

-- (1) the same seq delivered twice for one order (different msg_ids)
SELECT order_no, seq, 'duplicate' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1

UNION ALL

-- (2) a hole: some seq below the order's highest seq whose successor never arrived
--     (one row per hole start, whatever the width of the hole)
SELECT p.order_no, p.seq + 1 AS seq, 'missing' AS problem
FROM processed AS p
WHERE p.seq < (SELECT MAX(m.seq) FROM processed AS m WHERE m.order_no = p.order_no)
  AND NOT EXISTS (
        SELECT 1 FROM processed AS n
        WHERE n.order_no = p.order_no AND n.seq = p.seq + 1
  )

ORDER BY 1, 2;
