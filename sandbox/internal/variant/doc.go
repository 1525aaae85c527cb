// Package variant is the sandbox's second face (`treasury sandbox
// --variant`, sandbox.Options.Variant): the same seeded world, answered as
// another legal implementation of the spec would answer it where the spec
// says "not shown". The default face agrees with every guess our clients
// make; this one makes the other legal choices, so the data layer can be
// tested against both. Where the spec is explicit, both faces obey it.
//
// It is a layer, not a fork of the simulators: Wrap reshapes each
// interface's requests and JSON answers (ordered JSON trees, numbers kept as
// their text, so money never passes through a float), Gate lets the
// simulators refuse, after authentication, what a stricter server refuses,
// and the wallet simulator's NestedWalletPaths option picks the other form
// of the wallet paths. What the variant does, per interface:
//
// Page caps where the spec shows none:
//   - liquidity GET /api/v0/quotes, /trades, /balances: pageSize at most
//     LiquidityMaxPageSize (100); above, 400 naming pageSize (default face:
//     1,000);
//   - custody GET /v1/domains/{domainId}/endpoints: limit at most
//     CustodyMaxLimit (50); above, 400 naming limit (default face: 100).
//
// Extra fields on every record and envelope of every interface (the top
// object of an answer and every object in one of its arrays, and custody's
// endpoint data): "schemaVersion": 2, "_links": {"self": {"href": path}},
// "tags": ["a"], "extension": {"nested": {"x": 1}}.
//
// Other shapes of fields whose type the spec leaves open:
//   - liquidity: baseAssetQty, quoteAssetQty, bidPrice, askPrice, qty,
//     price, available, reserved, total as JSON numbers (17.1234, not
//     "17.1234"); createdAt, expiresAt, executedAt, updatedAt as
//     2026-11-16T09:30:00+00:00 (offset, no fraction);
//   - payments: sourceAmount, destinationAmount, totalFee, amount,
//     availableBalanceBefore, availableBalanceAfter, availableBalance,
//     reservedBalance as strings ("3816.34"); a null txnReference is left
//     out; GET {auth_url}/v2/oauth/token/test answers [ {message,
//     seconds_to_expiry} ];
//   - payments, auth and reporting errors wrapped: {"status": N, "errors":
//     [ {code, type, status, timestamp, title, description} ]};
//   - wallet: qty, balance, availableBalance, pendingBalance, frozenBalance,
//     fiatValue, limitQty, fee as JSON numbers; reasons[] entries as
//     {"code", "message"} (code: the text before the first colon);
//     problems[].retryable as "true" or "false"; a transaction's absent
//     hash and externalId as "";
//   - custody: metadata.createdBy as {"id", "name"};
//     metadata.customProperties with "tier": 3 and "reviewed": true beside
//     the string listing; parameters.ABI as a JSON array;
//     metadata.description "" on endpoints without a listing (the default
//     face always sends one); every item is signed again over its reshaped
//     data, so signatures still verify over the data as sent;
//   - liquidity and custody errors as RFC 7807 problem details
//     {"type": "about:blank", "title", "status", "detail"}, Content-Type
//     application/problem+json. Wallet errors keep the wallet model (spec
//     7.2 fixes it).
//
// The other form of paths the spec writes "...":
//   - wallet sub-resources (balances, settings, sequence, transactions,
//     transactions/raw, transactions/estimate-fee, transactions/{id},
//     .../freeze, .../unfreeze, .../freeze-history, policy-rules/limits and
//     limits/{id}) only under /v2/vaults/{vaultId}/wallets/{walletId}/...;
//     /v2/wallets/{walletId}/... answers 404 without ErrorInfo, as an
//     unknown route (the default face serves only that form, the other way
//     round). GET /v2/wallets/{walletId} and
//     GET /v2/vaults/{vaultId}/wallets/{walletId} answer in both faces.
//   - reporting: GET /v2/reports/{id} gives download_link
//     {reporting base}/files/{id}.csv or .json, and only that path serves
//     the content (the other extension 404); /v2/reports/download/{id}
//     answers 404.
//
// Parameters the spec does not document, as a strict server treats them:
//   - POST /v2/payments/filter and /v3/payments/filter: a filter field other
//     than paymentStates (paymentIds, internalId, afterTimestamp,
//     beforeTimestamp, destinationCurrencies...) is 400 USR_001 naming
//     filter.<field>;
//   - wallet transaction lists (.../transactions and sweep-instance
//     transactions): a filter query parameter is a 400 parser error
//     without ErrorInfo;
//   - custody: sortBy and sortOrder are ignored (the list keeps its
//     default order; an unknown value is no longer a 400).
//
// Empty optional values: on PAYMENT_OPS and RECON rows of a FAILED or
// DECLINED payment, received_amount and the receiver-side amounts
// (deposit_result_amount, deposit_result_fee_amount,
// destination_result_amount, destination_result_adjusted_amount,
// destination_result_proceeds, destination_result_adjusted_proceeds) are
// empty: an empty CSV cell, "" in JSON.
//
// Extra report columns: settlement_batch_id (SB-<quote day>) right after
// network_payment_id and fee_currency right after sent_currency, in CSV
// headers and rows and in JSON rows. Report contents are rewritten as they
// stream.
//
// Not changed: webhook notifications (spec 2.8 fixes their fields), the
// wallet error model, and everything the spec states explicitly.
package variant
