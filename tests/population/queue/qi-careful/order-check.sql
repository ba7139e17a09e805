-- order-check.sql: sequence problems inside one order_no in table processed.
-- One row per problem; no row at all when every order is a gap-free, duplicate-free run.
--   duplicate : the same seq recorded more than once for the order
--   missing   : a seq between the order's smallest and largest seq that is absent
--               (reported at the seq just before the hole; a hole of any width is one row)
--   empty     : a row whose seq is NULL or blank
SELECT order_no, seq, 'duplicate' AS problem
  FROM processed
 WHERE seq IS NOT NULL
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
SELECT DISTINCT p.order_no, p.seq, 'missing after this seq'
  FROM processed AS p
 WHERE p.seq IS NOT NULL
   AND p.seq < (SELECT MAX(m.seq) FROM processed AS m WHERE m.order_no = p.order_no)
   AND NOT EXISTS (SELECT 1 FROM processed AS n
                    WHERE n.order_no = p.order_no AND n.seq = p.seq + 1)
UNION ALL
SELECT order_no, seq, 'empty'
  FROM processed
 WHERE seq IS NULL OR TRIM(seq) = ''
ORDER BY 1, 2;
