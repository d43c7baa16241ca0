"""The network: GraphQL documents and the one module that runs them."""
