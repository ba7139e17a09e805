-- order-check.sql: sequence problems inside one order_no
--   duplicate : the same seq twice in one order
--   missing   : seq s is there, s+1 is not, but the order goes on past s
--               (one row per hole start, whatever the width of the hole)
SELECT order_no, seq, 'duplicate' AS problem
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
SELECT p.order_no, p.seq + 1 AS seq, 'missing' AS problem
  FROM processed AS p
 WHERE NOT EXISTS (SELECT 1 FROM processed AS n
                    WHERE n.order_no = p.order_no AND n.seq = p.seq + 1)
   AND p.seq < (SELECT MAX(m.seq) FROM processed AS m WHERE m.order_no = p.order_no)
 ORDER BY 1, 2;
